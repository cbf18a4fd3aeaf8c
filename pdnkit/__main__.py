from pdnkit.launch import main

main()
