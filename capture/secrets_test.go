package capture

import "testing"

// Credentials are masked as headers are captured; what names them, and
// what is not one, is kept.
func TestMaskHeader(t *testing.T) {
	jwt := "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"
	cases := []struct{ name, value, want string }{
		{"Authorization", "Bearer " + jwt, "Bearer ***"},
		{"authorization", "opaque", "***"},
		{"Proxy-Authorization", "Basic dXNlcjpwYXNz", "Basic ***"},
		{"Cookie", "sid=abc123; theme=dark", "sid=***; theme=***"},
		{"set-cookie", "sid=abc; Path=/; HttpOnly\nlang=en; Max-Age=60", "sid=***; Path=/; HttpOnly\nlang=***; Max-Age=60"},
		{"X-API-Key", "k-123", "***"},
		{"x-auth-token", "t", "***"},
		{"X-CSRF-Token", "t", "***"},
		{"X-Amz-Security-Token", "t", "***"},
		{"x-session-id", "s", "***"},
		{"Referer", "https://a.test/cb?code=xyz&page=2&access_token=" + jwt, "https://a.test/cb?code=***&page=2&access_token=***"},
		{"Location", "https://user:pw@a.test/next?sig=abc", "https://user:***@a.test/next?sig=***"},
		{"Content-Type", "application/json", "application/json"},
		{"User-Agent", "Mozilla/5.0", "Mozilla/5.0"},
		{":authority", "a.test", "a.test"},
		{":path", "/cb?state=1&code=abc", "/cb?state=1&code=***"},
		{"Keep-Alive", "timeout=5", "timeout=5"},
		{"X-Author", "ada", "ada"},
	}
	for _, tc := range cases {
		if got := maskHeader(tc.name, tc.value); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestMaskQueryAndBodies(t *testing.T) {
	token := "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
	cases := []struct{ in, want string }{
		{"page=2&q=milk", "page=2&q=milk"},
		{"key=AIzaSy&keyword=oat", "key=***&keyword=oat"},
		{"apiKey=1&id=550e8400-e29b-41d4-a716-446655440000", "apiKey=***&id=550e8400-e29b-41d4-a716-446655440000"},
		{"next=" + token, "next=***"},
		{"password=hunter2&user=ada", "password=***&user=ada"},
		{"flag&empty=", "flag&empty="},
	}
	for _, tc := range cases {
		if got := maskQuery(tc.in); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.in, got, tc.want)
		}
	}
	in := `{"user":"ada","password":"hun\"ter2","nested":{"accessToken":"x"},"author":"ada","count":3}`
	want := `{"user":"ada","password":"***","nested":{"accessToken":"***"},"author":"ada","count":3}`
	if got := maskJSON(in); got != want {
		t.Errorf("json: %s", got)
	}
}

// Headers are bounded: a value is cut, and past the count or the bytes
// the rest are left out and counted.
func TestKeepHeadersBounds(t *testing.T) {
	h := map[string]string{"a": string(make([]byte, 5000))}
	for i := range 100 {
		h[string(rune('b'+i%20))+string(rune('A'+i))] = "v"
	}
	kept, omitted := keepHeaders(h)
	if len(kept) != maxHeaders || omitted != 101-maxHeaders {
		t.Errorf("kept %d, omitted %d", len(kept), omitted)
	}
	if n := len([]rune(kept["a"])); n != maxHeaderValue {
		t.Errorf("a value of %d runes", n)
	}
}
