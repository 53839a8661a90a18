import Foundation

print("routereg: commands arrive with the server and CLI issues")
