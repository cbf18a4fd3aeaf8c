"""``python -m pdnkit.samples [OUT_DIR]``: rewrite the bundled sample collections."""

from pdnkit.samples.samples import main

main()
