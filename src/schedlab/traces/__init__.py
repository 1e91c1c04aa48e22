"""Stage 1: traces — SWF reading, the registry, download, normalization, cleaning, flurries."""
