package runner

import (
	"strings"
	"testing"
)

func TestRedactParamsHidesWSURLTokens(t *testing.T) {
	raw := []byte(`{"openTab":{"url":"https://shop.example/?q=1","wsUrl":"wss://gw.example/chrome?token=s3cret"},"timeout":5000}`)
	got := string(redactParams(raw))
	if strings.Contains(got, "s3cret") || !strings.Contains(got, "token=***") || !strings.Contains(got, "?q=1") || !strings.Contains(got, "5000") {
		t.Fatalf("got %s", got)
	}
	plain := []byte(`{"goto":"https://x/?token=keep"}`)
	if string(redactParams(plain)) != string(plain) {
		t.Fatal("params without wsUrl must be echoed as given")
	}
}
