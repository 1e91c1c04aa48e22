"""Pipeline glue: the workflow config check and the Snakemake script adapters."""
