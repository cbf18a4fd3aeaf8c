"""Row encoding shared by the DuckDB store and the Parquet lake.

:mod:`.rows` turns replayed games (:class:`~pdnkit.validation.GameReport`) into column
batches (:class:`~pdnkit.rows.batch.ReportBatch`), :mod:`.bitboards` writes positions as
square bitboards and knows each board's layout, :mod:`.compact` stores moves without what the
``moves`` view derives again, and :mod:`.load` is the SQL that puts a batch into the tables
(the same for a database file and for a lake's parts). Nothing here opens a database.

Example:
    >>> from pdnkit.rows.batch import ReportBatch
    >>> ReportBatch().games_count
    0
"""
