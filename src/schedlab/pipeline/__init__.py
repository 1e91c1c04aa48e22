"""Pipeline glue: the workflow config check, Snakemake script adapters, atomic outputs."""
