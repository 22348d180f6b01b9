package wiretest

import "testing"

func TestReadHTTPRRSplitsRequestAndResponseOfRecordedTrace(t *testing.T) {
	data, err := ReadFile("llms_openai_TestFunctionCall.httprr")
	if err != nil {
		t.Fatal(err)
	}
	exs, err := ReadHTTPRR(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) != 1 {
		t.Fatalf("got %d exchanges, want 1", len(exs))
	}
	ex := exs[0]
	if ex.Request.Method != "POST" || ex.Request.URL.Path != "/v1/chat/completions" {
		t.Errorf("request line: %s %s", ex.Request.Method, ex.Request.URL)
	}
	if ex.Response.StatusCode != 200 {
		t.Errorf("status %d", ex.Response.StatusCode)
	}
	if got := len(ex.RequestBody); got != 463 {
		t.Errorf("request body is %d bytes, want 463 (its Content-Length)", got)
	}
	if ex.RequestBody[0] != '{' || ex.ResponseBody[0] != '{' {
		t.Errorf("bodies do not start with JSON: %q / %q", ex.RequestBody[:1], ex.ResponseBody[:1])
	}
}

func TestReadHTTPRRRejectsBadInput(t *testing.T) {
	for name, in := range map[string]string{
		"no header":   "GET / HTTP/1.1\r\n\r\n",
		"bad lengths": "httprr trace v1\nx y\n",
		"truncated":   "httprr trace v1\n100 100\nGET",
	} {
		if _, err := ReadHTTPRR([]byte(in)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestShapeSortsKeysHidesOpaqueObjectsAndTypesScalars(t *testing.T) {
	got, err := Shape([]byte(`{"b":[1,"x",true,null],"a":{"parameters":{"type":"object"},"strict":false}}`), "parameters")
	if err != nil {
		t.Fatal(err)
	}
	const want = `{a:{parameters:schema,strict:bool},b:[number,string,bool,null]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
