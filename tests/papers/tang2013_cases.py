"""Tang et al. 2013 tests' shared settings: the config file as written (RAW) and resolved at the
default scale (CFG)."""

from pathlib import Path

import yaml

from schedlab.papers.tang2013.config import resolve_settings

RAW = yaml.safe_load((Path(__file__).parents[2] / "config/papers/tang2013.yaml").read_text())
CFG = resolve_settings(RAW)
