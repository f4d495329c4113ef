"""python3 -m bookforge_dask: the same as the bookforge-dask command."""

# LocalCluster starts its workers by spawning new interpreters, which import the main module
# again: without this guard every worker would start the job once more.
if __name__ == "__main__":
    from bookforge_dask.cli import exit_at_once, main

    exit_at_once(main())
