# Cirne 2001 (thesis ch. 2, 4-6): SA choosing moldable requests. Its experiments run through the
# generic paper rule family (papers.smk: cirne2001_point per workload, sweep workload, NAS log and
# attribution run; cirne2001_assemble; target cirne2001), the contract in schedlab.papers.cirne2001.
# Target: snakemake cirne2001   (quick: --config quick=True; larger samples: --config full=True;
# the thesis' sizes: --config 'papers={cirne2001: {scale: paper}}')
# Settings: config/papers/cirne2001_sa.yaml (override path: --config cirne2001_sa=PATH).
#
# Paper-specific: the chapter-3 workload models (Tables 1-10) are a separate stage fitted from the
# logs (models.smk); the report shows their scorecard with the thesis, so the paper's target
# builds it too when the thesis' logs are at hand (the contract's extra_targets).


include: "models.smk"
