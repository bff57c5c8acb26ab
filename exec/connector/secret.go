package connector

import (
	"net/url"
	"regexp"
	"strings"
)

// ShownValue is an option's value as statements that print a table show
// it (SHOW CREATE TABLE): a password, and the password in a url, made
// asterisks, as Flink hides the values of sensitive keys.
func ShownValue(key, value string) string {
	k := strings.ToLower(key)
	if strings.Contains(k, "password") || strings.Contains(k, "secret") {
		return "******"
	}
	if u, err := url.Parse(strings.TrimPrefix(value, "jdbc:")); err == nil && u.Scheme != "" {
		if _, ok := u.User.Password(); ok {
			value = strings.Replace(value, ":"+userPassword(u)+"@", ":******@", 1)
		}
	}
	return passwordParam.ReplaceAllString(value, "${1}******")
}

func userPassword(u *url.URL) string {
	s := u.User.String()
	_, p, _ := strings.Cut(s, ":")
	return p
}

// passwordParam is a password given as a url parameter (password=...) or
// in a keyword/value connection string (password=... ).
var passwordParam = regexp.MustCompile(`(?i)(\bpassword=)[^&\s]*`)
