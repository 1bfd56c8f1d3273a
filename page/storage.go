package page

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/cdpskill/cdpskill/internal/invalid"
)

//go:embed js/storage.js
var storageJS string

// StorageOps are the operations of the storage step on one area. They
// run in the order clear, remove, set, get.
type StorageOps struct {
	Get    []string          `json:"get,omitempty"`
	GetAll bool              `json:"getAll,omitempty"`
	Set    map[string]string `json:"set,omitempty"`
	Remove []string          `json:"remove,omitempty"`
	Clear  bool              `json:"clear,omitempty"`
}

// StorageResult reports each operation asked for. Items maps each key
// asked for (or every key, with GetAll) to its value, null when absent.
type StorageResult struct {
	Items   map[string]*string `json:"items,omitempty"`
	Count   *int               `json:"count,omitempty"` // keys in the area, with GetAll
	Set     *int               `json:"set,omitempty"`
	Removed *int               `json:"removed,omitempty"`
	Cleared *int               `json:"cleared,omitempty"`
}

// StorageError is a page whose origin has no Web Storage, or a storage
// that refused a write (quota).
type StorageError struct {
	Area   string // "local" or "session"
	Reason string // the page's exception
}

func (e *StorageError) Error() string {
	return fmt.Sprintf("%sStorage: %s (about:blank and data: pages have none: navigate to the site first)", e.Area, e.Reason)
}

// Storage runs ops on the page's localStorage ("local") or sessionStorage
// ("session"), in p's current frame.
func Storage(ctx context.Context, p *Page, area string, ops StorageOps) (*StorageResult, error) {
	if area != "local" && area != "session" {
		return nil, &invalid.Option{Field: "storage area", Value: area, Reason: `use "local" or "session"`}
	}
	var res struct {
		StorageResult
		Error string `json:"error"`
	}
	if err := p.CallJS(ctx, storageJS, &res, area, ops); err != nil {
		return nil, fmt.Errorf("page: %sStorage: %w", area, err)
	}
	if res.Error != "" {
		return nil, &StorageError{Area: area, Reason: res.Error}
	}
	return &res.StorageResult, nil
}
