from pdnkit.cli import main

main()
