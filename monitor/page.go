package monitor

import (
	"embed"
	"io/fs"
	"net/http"
)

// page holds the status page: HTML, its script and its style, served as
// they are (no build step, nothing fetched from elsewhere).
//
//go:embed page
var page embed.FS

func pageHandler() http.Handler {
	sub, err := fs.Sub(page, "page")
	if err != nil {
		panic(err) // the embedded tree always has page/
	}
	return http.FileServerFS(sub)
}
