"""bookforge on a Dask cluster: books, stores and exit suites made from game databases
spread over many workers, byte-identical to one machine (docs/scale.md).

The C++ binary does all the chess on every worker; this package only plans the shards, runs
bookforge's map and reduce steps as Dask tasks, and puts the results in place.
"""

__version__ = "1.0.0"
