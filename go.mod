module github.com/cdpskill/cdpskill

go 1.26.8

require (
	github.com/agnivade/levenshtein v1.2.2
	github.com/gorilla/websocket v1.5.3
	golang.org/x/sync v0.24.0
)
