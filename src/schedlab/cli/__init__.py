"""The ``schedlab`` command line (entry point :func:`schedlab.cli.main.main`)."""
