"""fivecard's version (the package's ``__version__``, the lookup-table
cache's key, the web app's and the command's ``--version``)."""

__version__ = "0.1.0"
