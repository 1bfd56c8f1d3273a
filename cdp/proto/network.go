package proto

import (
	"context"

	"github.com/cdpskill/cdpskill/cdp"
)

// Cookie is a browser cookie (Network.Cookie), the parts cdpskill reads.
type Cookie struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Domain string `json:"domain"`
	Path   string `json:"path"`
	// Expires is in seconds since the epoch; a session cookie's is -1,
	// and Session says so too.
	Expires  float64 `json:"expires"`
	HTTPOnly bool    `json:"httpOnly"`
	Secure   bool    `json:"secure"`
	Session  bool    `json:"session"`
	SameSite string  `json:"sameSite"`
	// PartitionKey is a partitioned (CHIPS) cookie's partition.
	PartitionKey *CookiePartitionKey `json:"partitionKey"`
}

// CookiePartitionKey is the partition of a partitioned cookie
// (Network.CookiePartitionKey): the top-level site it was set under.
type CookiePartitionKey struct {
	TopLevelSite         string `json:"topLevelSite"`
	HasCrossSiteAncestor bool   `json:"hasCrossSiteAncestor"`
}

// Request is an HTTP request (Network.Request), the parts cdpskill reads.
type Request struct {
	// URL leaves out the fragment; a data: URL can be megabytes long.
	URL    string `json:"url"`
	Method string `json:"method"`
	// PostData is the request's body, when Chrome sends it along (a
	// small one).
	PostData string `json:"postData,omitempty"`
	// Headers are those the page asked for; the ones sent, cookies
	// included, come in Network.requestWillBeSentExtraInfo. A name given
	// twice has its values joined by newlines.
	Headers map[string]string `json:"headers,omitempty"`
}

// Response is an HTTP response (Network.Response), the parts cdpskill
// reads.
type Response struct {
	URL               string `json:"url"`
	Status            int    `json:"status"`
	MimeType          string `json:"mimeType"`
	FromDiskCache     bool   `json:"fromDiskCache"`
	FromPrefetchCache bool   `json:"fromPrefetchCache"`
	// FromServiceWorker: a service worker answered, from the network or
	// from the Cache Storage (which Chrome also flags FromDiskCache).
	FromServiceWorker bool            `json:"fromServiceWorker"`
	Timing            *ResourceTiming `json:"timing"`
	StatusText        string          `json:"statusText"`
	// Headers are those the page sees; the ones received over the wire,
	// cookies included, come in Network.responseReceivedExtraInfo.
	Headers  map[string]string `json:"headers"`
	Protocol string            `json:"protocol"` // "http/1.1", "h2", "h3"…
	// RemoteIPAddress is the server's, when the network answered.
	RemoteIPAddress string `json:"remoteIPAddress"`
}

// ResourceTiming is the network stack's timing of a response
// (Network.ResourceTiming), the parts cdpskill reads: the response
// events themselves may be stamped after the body has finished.
type ResourceTiming struct {
	// RequestTime is the request's start, in Chrome's monotonic seconds
	// (those of the events' timestamps).
	RequestTime float64 `json:"requestTime"`
	// The rest are milliseconds after RequestTime, -1 for a phase that
	// did not happen (a reused connection has no DNS or connect).
	ProxyStart        float64 `json:"proxyStart"`
	ProxyEnd          float64 `json:"proxyEnd"`
	DNSStart          float64 `json:"dnsStart"`
	DNSEnd            float64 `json:"dnsEnd"`
	ConnectStart      float64 `json:"connectStart"`
	ConnectEnd        float64 `json:"connectEnd"`
	SSLStart          float64 `json:"sslStart"`
	SSLEnd            float64 `json:"sslEnd"`
	SendStart         float64 `json:"sendStart"`
	SendEnd           float64 `json:"sendEnd"`
	ReceiveHeadersEnd float64 `json:"receiveHeadersEnd"`
}

// CorsErrorStatus is why CORS blocked a request (Network.CorsErrorStatus).
type CorsErrorStatus struct {
	CorsError string `json:"corsError"`
}

// NetworkEnable turns the Network events on for the session. From then
// on Chrome streams an event or three per request over the socket for the
// rest of the session; enabling it again is harmless.
type NetworkEnable struct{}

func (p NetworkEnable) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Network.enable", p)
}

// Send enables the domain without waiting for the reply: a worker paused
// at its start answers it only once it is resumed.
func (p NetworkEnable) Send(ctx context.Context, c Caller) *cdp.Sent {
	return c.Send(ctx, "Network.enable", p)
}

// NetworkEmulateNetworkConditions throttles or cuts the target's network.
// It needs the Network domain enabled. Every field is sent, zero or not.
type NetworkEmulateNetworkConditions struct {
	Offline bool `json:"offline"`
	// Latency is the minimum round trip, in ms; 0 adds none.
	Latency float64 `json:"latency"`
	// DownloadThroughput and UploadThroughput are in bytes per second;
	// -1 is no limit.
	DownloadThroughput float64 `json:"downloadThroughput"`
	UploadThroughput   float64 `json:"uploadThroughput"`
}

func (p NetworkEmulateNetworkConditions) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Network.emulateNetworkConditions", p)
}

// Send sets the conditions without waiting for the reply: a worker
// paused at its start answers it only once it is resumed, and must be
// resumed after it.
func (p NetworkEmulateNetworkConditions) Send(ctx context.Context, c Caller) *cdp.Sent {
	return c.Send(ctx, "Network.emulateNetworkConditions", p)
}

// NetworkSetCacheDisabled makes the target's requests bypass the HTTP
// cache, or use it again. It needs the Network domain enabled.
type NetworkSetCacheDisabled struct {
	CacheDisabled bool `json:"cacheDisabled"`
}

func (p NetworkSetCacheDisabled) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Network.setCacheDisabled", p)
}

func (p NetworkSetCacheDisabled) Send(ctx context.Context, c Caller) *cdp.Sent {
	return c.Send(ctx, "Network.setCacheDisabled", p)
}

// NetworkSetBypassServiceWorker makes the target's requests skip its
// service workers, or go through them again. It needs the Network domain
// enabled.
type NetworkSetBypassServiceWorker struct {
	Bypass bool `json:"bypass"`
}

func (p NetworkSetBypassServiceWorker) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Network.setBypassServiceWorker", p)
}

// NetworkGetCookies reads the cookies the URLs would send; with none, the
// page's own URL's.
type NetworkGetCookies struct {
	URLs []string `json:"urls,omitempty"`
}

type NetworkGetCookiesResult struct {
	Cookies []Cookie `json:"cookies"`
}

func (p NetworkGetCookies) Do(ctx context.Context, c Caller) (NetworkGetCookiesResult, error) {
	return call[NetworkGetCookiesResult](ctx, c, "Network.getCookies", p)
}

// NetworkGetAllCookies reads every cookie of the session's browser
// context. The protocol calls it deprecated for Storage.getCookies, but
// that, sent to a page, reads Chrome's default context whatever context
// the page is in (Chrome 156), and names another only when sent to the
// browser, which a tab's own websocket may not.
type NetworkGetAllCookies struct{}

func (p NetworkGetAllCookies) Do(ctx context.Context, c Caller) (NetworkGetCookiesResult, error) {
	return call[NetworkGetCookiesResult](ctx, c, "Network.getAllCookies", p)
}

// NetworkDeleteCookies deletes the cookies called Name that match the
// domain and path. Domain and Path are sent even when empty: they are
// those of a cookie read, and an omitted one would match every cookie of
// that name.
type NetworkDeleteCookies struct {
	Name   string `json:"name"`
	Domain string `json:"domain"`
	Path   string `json:"path"`
	// PartitionKey deletes a partitioned cookie; without one, only
	// unpartitioned cookies go.
	PartitionKey *CookiePartitionKey `json:"partitionKey,omitempty"`
}

func (p NetworkDeleteCookies) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Network.deleteCookies", p)
}

// NetworkClearBrowserCookies deletes every cookie of the session's
// browser context.
type NetworkClearBrowserCookies struct{}

func (p NetworkClearBrowserCookies) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Network.clearBrowserCookies", p)
}

// NetworkSetCookie sets one cookie. It needs a URL or a Domain to scope
// it; with a Domain and no URL, Chrome takes no path from anywhere and
// refuses the cookie unless Path is set.
type NetworkSetCookie struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	URL    string `json:"url,omitempty"`
	Domain string `json:"domain,omitempty"`
	Path   string `json:"path,omitempty"`
	// Expires is in seconds since the epoch; 0 (omitted) sets a session
	// cookie.
	Expires  float64 `json:"expires,omitempty"`
	HTTPOnly bool    `json:"httpOnly,omitempty"`
	Secure   bool    `json:"secure,omitempty"`
	// SameSite is Strict, Lax or None.
	SameSite     string              `json:"sameSite,omitempty"`
	PartitionKey *CookiePartitionKey `json:"partitionKey,omitempty"`
}

func (p NetworkSetCookie) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Network.setCookie", p)
}

// NetworkSetCookies sets cookies in one call. Chrome drops some it
// cannot set (a sameSite None one not secure) without a word, and sets
// the others: read them back to know.
type NetworkSetCookies struct {
	Cookies []NetworkSetCookie `json:"cookies"`
}

func (p NetworkSetCookies) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Network.setCookies", p)
}

// NetworkGetResponseBody reads a finished response's body, as long as
// Chrome keeps it (its buffers are bounded, and a navigation may drop
// it).
type NetworkGetResponseBody struct {
	RequestID string `json:"requestId"`
}

type NetworkGetResponseBodyResult struct {
	Body          string `json:"body"`
	Base64Encoded bool   `json:"base64Encoded"`
}

func (p NetworkGetResponseBody) Do(ctx context.Context, c Caller) (NetworkGetResponseBodyResult, error) {
	return call[NetworkGetResponseBodyResult](ctx, c, "Network.getResponseBody", p)
}

// The Network domain's events. A request begins with requestWillBeSent;
// a redirect ends the hop before with the next hop's requestWillBeSent,
// under the same request id.
const (
	EventNetworkRequestWillBeSent      = "Network.requestWillBeSent"
	EventNetworkResponseReceived       = "Network.responseReceived"
	EventNetworkLoadingFinished        = "Network.loadingFinished"
	EventNetworkLoadingFailed          = "Network.loadingFailed"
	EventNetworkRequestServedFromCache = "Network.requestServedFromCache"
	EventNetworkDataReceived           = "Network.dataReceived"
	// The ExtraInfo events bring the headers that went over the wire,
	// cookies included, before or after the event they add to; a
	// request served from a cache has none.
	EventNetworkRequestWillBeSentExtraInfo = "Network.requestWillBeSentExtraInfo"
	EventNetworkResponseReceivedExtraInfo  = "Network.responseReceivedExtraInfo"
)
