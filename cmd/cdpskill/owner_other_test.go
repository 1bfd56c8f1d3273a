//go:build !unix

package main

import "io/fs"

func ownerOf(fs.FileInfo) (int, bool) { return 0, false }
