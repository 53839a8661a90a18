print("routereg-bench: the matcher benchmark lands with the RouteCore issue")
