package proto

import "context"

// StorageGetCookies reads every cookie of the session's browser context.
// Network.getAllCookies, which did the same, is deprecated.
type StorageGetCookies struct{}

type StorageGetCookiesResult struct {
	Cookies []Cookie `json:"cookies"`
}

func (p StorageGetCookies) Do(ctx context.Context, c Caller) (StorageGetCookiesResult, error) {
	return call[StorageGetCookiesResult](ctx, c, "Storage.getCookies", p)
}
