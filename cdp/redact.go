package cdp

import (
	"net/url"
	"regexp"
	"strings"
)

// An endpoint handed out by a hosted browser service often carries a token
// in its query string, or a password: it is kept for dialling and never
// shown. The wire's own errors name the endpoint this way, and so does
// every message above it that repeats a URL.

// urlInText finds URLs in a message, stopping before quotes, spaces and
// the punctuation that follows a URL in a sentence.
var urlInText = regexp.MustCompile(`(?i)\b(?:wss?|https?)://[^\s"'<>]*[^\s"'<>:;,.)]`)

// RedactText redacts every URL in s (see RedactURL).
func RedactText(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	return urlInText.ReplaceAllStringFunc(s, RedactURL)
}

// RedactURL hides a URL's secrets: each query value becomes *** (names are
// kept: ?token=*** says what to check) and so does a password.
func RedactURL(raw string) string {
	base, query, hasQuery := strings.Cut(raw, "?")
	if u, err := url.Parse(base); err != nil {
		base = redactUserinfo(base)
	} else if u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "***")
			base = strings.Replace(u.String(), "%2A%2A%2A", "***", 1)
		}
	}
	if !hasQuery {
		return base
	}
	frag := ""
	if q, f, ok := strings.Cut(query, "#"); ok {
		query, frag = q, "#"+f
	}
	parts := strings.Split(query, "&")
	for i, p := range parts {
		if p == "" {
			continue
		}
		if k, _, ok := strings.Cut(p, "="); ok {
			parts[i] = k + "=***"
		} else {
			parts[i] = "***"
		}
	}
	return base + "?" + strings.Join(parts, "&") + frag
}

// redactUserinfo hides the password of a URL that url.Parse refuses
// ("http://user:p%zz@host"), read by its text.
func redactUserinfo(s string) string {
	_, rest, ok := strings.Cut(s, "://")
	if !ok {
		return s
	}
	authority, _, _ := strings.Cut(rest, "/")
	at := strings.LastIndex(authority, "@")
	if at < 0 {
		return s
	}
	user, _, has := strings.Cut(authority[:at], ":")
	if !has {
		return s
	}
	start := len(s) - len(rest)
	return s[:start] + user + ":***" + s[start+at:]
}
