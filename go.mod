module github.com/cdpskill/cdpskill

go 1.26.8

require (
	github.com/agnivade/levenshtein v1.2.2
	github.com/gorilla/websocket v1.5.3
	github.com/tidwall/gjson v1.20.0
	golang.org/x/sync v0.24.0
)

require (
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.0 // indirect
)
