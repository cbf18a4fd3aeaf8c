"""The version of pdnkit (one place: ``pdnkit.__version__`` is this; the ground floor, so any
room can name it without importing the package's face).

Example:
    >>> import pdnkit
    >>> pdnkit.__version__ == __version__
    True
"""

__version__ = "0.1.0"
