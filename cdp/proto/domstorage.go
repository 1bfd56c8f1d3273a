package proto

import "context"

// StorageID names an origin's local or session storage
// (DOMStorage.StorageId).
type StorageID struct {
	SecurityOrigin string `json:"securityOrigin,omitempty"`
	IsLocalStorage bool   `json:"isLocalStorage"`
}

// DOMStorageGetDOMStorageItems reads an origin's storage. Chrome finds it
// through a frame of the tab on that origin: for any other it answers
// "Frame not found for the given storage id".
type DOMStorageGetDOMStorageItems struct {
	StorageID StorageID `json:"storageId"`
}

type DOMStorageGetDOMStorageItemsResult struct {
	// Entries are [key, value] pairs.
	Entries [][]string `json:"entries"`
}

func (p DOMStorageGetDOMStorageItems) Do(ctx context.Context, c Caller) (DOMStorageGetDOMStorageItemsResult, error) {
	return call[DOMStorageGetDOMStorageItemsResult](ctx, c, "DOMStorage.getDOMStorageItems", p)
}

// DOMStorageSetDOMStorageItem sets a key of an origin's storage, which,
// as for reading, a frame of the tab must be on.
type DOMStorageSetDOMStorageItem struct {
	StorageID StorageID `json:"storageId"`
	Key       string    `json:"key"`
	Value     string    `json:"value"`
}

func (p DOMStorageSetDOMStorageItem) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "DOMStorage.setDOMStorageItem", p)
}

// DOMStorageRemoveDOMStorageItem removes a key of an origin's storage,
// which, as for reading, a frame of the tab must be on.
type DOMStorageRemoveDOMStorageItem struct {
	StorageID StorageID `json:"storageId"`
	Key       string    `json:"key"`
}

func (p DOMStorageRemoveDOMStorageItem) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "DOMStorage.removeDOMStorageItem", p)
}
