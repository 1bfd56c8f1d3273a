package capture

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/cdpskill/cdpskill/cdp"
)

// Secrets in what the network capture keeps. A request's headers are kept
// (for the body read-back and the HAR) with their credentials masked as
// they are captured, so no file ever holds them: Authorization and
// Proxy-Authorization keep their scheme ("Bearer ***"), Cookie and
// Set-Cookie their cookies' names and attributes ("sid=***; Path=/"), a
// header whose name says it holds a secret (X-API-Key, X-Auth-Token,
// X-CSRF-Token, …) is "***", and the URLs in Referer, Location and
// HTTP/2's :path lose their token-like query values. A HAR is made to be shared, so it masks
// the same way the query values of every URL and the secret-named fields
// of the JSON and form bodies it holds. A name is kept: "sid=***" says
// which cookie to check.

const masked = "***"

// secretWords are the words of a name (split at case changes and
// punctuation) that make its value a secret; secretParts make it one
// anywhere in a word ("accesstoken", "sessionid").
var (
	secretWords = []string{"auth", "key", "sig", "sid", "pwd", "pin", "jwt", "otp", "bearer", "cookie"}
	secretParts = []string{"token", "secret", "passw", "apikey", "credential", "session", "csrf", "xsrf",
		"signature", "privatekey", "authorization"}
)

// secretName reports whether a header, query parameter or JSON field
// called name holds a secret: X-API-Key, access_token, sessionId,
// password. "author" or "keyword" do not.
func secretName(name string) bool {
	for _, w := range nameWords(name) {
		if slices.Contains(secretWords, w) {
			return true
		}
		for _, p := range secretParts {
			if strings.Contains(w, p) {
				return true
			}
		}
	}
	return false
}

// nameWords splits a name into lower-case words at punctuation and at a
// lower-case letter followed by an upper-case one: "X-Api-Key" and
// "apiKey" are both "api", "key".
func nameWords(name string) []string {
	var words []string
	var w []rune
	prev := rune(0)
	flush := func() {
		if len(w) > 0 {
			words = append(words, strings.ToLower(string(w)))
			w = w[:0]
		}
	}
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			w = append(w, r)
		default:
			w = append(w, r)
		}
		prev = r
	}
	flush()
	return words
}

// maskHeader masks a header's value as captured (see above).
func maskHeader(name, value string) string {
	switch n := strings.ToLower(name); {
	case n == "cookie":
		return maskCookies(value)
	case n == "set-cookie":
		lines := strings.Split(value, "\n") // Chrome joins repeated headers so
		for i, l := range lines {
			name, attrs, _ := strings.Cut(l, ";")
			lines[i] = maskCookies(name)
			if attrs != "" {
				lines[i] += ";" + attrs
			}
		}
		return strings.Join(lines, "\n")
	case n == "authorization" || n == "proxy-authorization":
		if scheme, _, ok := strings.Cut(strings.TrimSpace(value), " "); ok {
			return scheme + " " + masked
		}
		return masked
	case n == "referer" || n == "location" || n == "content-location" || n == ":path": // HTTP/2's has the query
		return maskURL(value)
	case secretName(n):
		return masked
	}
	return value
}

// maskCookies masks "a=1; b=2" to "a=***; b=***".
func maskCookies(s string) string {
	parts := strings.Split(s, ";")
	for i, p := range parts {
		if name, _, ok := strings.Cut(p, "="); ok {
			parts[i] = name + "=" + masked
		}
	}
	return strings.Join(parts, ";")
}

// maskURL masks a URL's password and its query's token-like values.
func maskURL(raw string) string {
	base, query, hasQuery := strings.Cut(raw, "?")
	if strings.Contains(base, "@") {
		base = cdp.RedactURL(base) // its password, if any
	}
	if !hasQuery {
		return base
	}
	frag := ""
	if q, f, ok := strings.Cut(query, "#"); ok {
		query, frag = q, "#"+f
	}
	return base + "?" + maskQuery(query) + frag
}

// maskQuery masks the values of a query string or a form body
// ("a=1&token=x") whose name says it is a secret or that look like one.
func maskQuery(query string) string {
	parts := strings.Split(query, "&")
	for i, p := range parts {
		k, v, ok := strings.Cut(p, "=")
		if !ok || v == "" {
			continue
		}
		name, err := url.QueryUnescape(k)
		if err != nil {
			name = k
		}
		value, err := url.QueryUnescape(v)
		if err != nil {
			value = v
		}
		if secretName(name) || name == "code" || looksLikeToken(value) {
			parts[i] = k + "=" + masked
		}
	}
	return strings.Join(parts, "&")
}

var (
	jwtLike  = regexp.MustCompile(`^eyJ[\w-]+\.[\w-]+\.[\w-]*$`)
	uuidLike = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
)

// looksLikeToken: a JWT, or 32 characters or more of base64 or hex with
// letters and digits both, as keys, signatures and session ids are; not a
// UUID, which names a thing rather than opening it.
func looksLikeToken(v string) bool {
	if jwtLike.MatchString(v) {
		return true
	}
	if len(v) < 32 || uuidLike.MatchString(v) {
		return false
	}
	letter, digit := false, false
	for _, r := range v {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
			letter = true
		case r == '+' || r == '/' || r == '=' || r == '_' || r == '-':
		default:
			return false
		}
	}
	return letter && digit
}

// jsonStringField is a JSON object's string field: "name": "value".
var jsonStringField = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"(\s*:\s*)"((?:[^"\\]|\\.)*)"`)

// maskJSON masks, in JSON text, the string values of fields whose name
// says they are secrets ({"password":"***"}), the text kept as it was
// written otherwise.
func maskJSON(s string) string {
	return jsonStringField.ReplaceAllStringFunc(s, func(m string) string {
		sub := jsonStringField.FindStringSubmatch(m)
		if !secretName(sub[1]) && !looksLikeToken(sub[3]) {
			return m
		}
		return `"` + sub[1] + `"` + sub[2] + `"` + masked + `"`
	})
}
