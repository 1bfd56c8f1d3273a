package runner

import (
	"encoding/json"
	"testing"
)

func TestMaskSecrets(t *testing.T) {
	in := `{"request":{"steps":[{"fill":{"selector":"#pass","value":"hunter22"}},{"fill":{"#pin":"42","#name":"Ada 42"}}]},` +
		`"response":{"status":"error","steps":[{"action":"fill","params":{"value":"hunter22"},"error":"rejected hunter22!","n":1.5,"ok":true,"x":null}],"hunter22":[]}}`
	got := string(maskSecrets([]byte(in), []string{"hunter22", "42"}))
	want := `{"request":{"steps":[{"fill":{"selector":"#pass","value":"********"}},{"fill":{"#pin":"********","#name":"Ada 42"}}]},` +
		`"response":{"status":"error","steps":[{"action":"fill","params":{"value":"********"},"error":"rejected ********!","n":1.5,"ok":true,"x":null}],"hunter22":[]}}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if !json.Valid([]byte(got)) {
		t.Error("not JSON")
	}
	if string(maskSecrets([]byte(in), nil)) != in {
		t.Error("nothing to mask changed the document")
	}
}
