package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/replaycheck/replaycheck/engine"
)

func TestCredentialHeaders(t *testing.T) {
	const key = "k-0123456789"
	tests := []struct {
		reason  string
		mode    engine.APIMode
		send    string
		key     string
		headers map[string]string
	}{
		{"chat sends a bearer token", engine.ModeChat, "https://api.deepseek.com/v1", key,
			map[string]string{"Authorization": "Bearer " + key}},
		{"chat to the simulator still sends it (the simulator ignores it)", engine.ModeChat, "http://127.0.0.1:4000", key,
			map[string]string{"Authorization": "Bearer " + key}},
		{"anthropic sends x-api-key and anthropic-version", engine.ModeAnthropic, "https://api.anthropic.com", key,
			map[string]string{"X-Api-Key": key, "Anthropic-Version": "2023-06-01", "Authorization": ""}},
		{"Foundry's Anthropic endpoint takes x-api-key too", engine.ModeAnthropic, "https://demo.services.ai.azure.com/anthropic", key,
			map[string]string{"X-Api-Key": key, "Anthropic-Version": "2023-06-01"}},
		{"Anthropic on Vertex takes a Google access token", engine.ModeAnthropic, "https://us-east5-aiplatform.googleapis.com/v1/projects/p", key,
			map[string]string{"Authorization": "Bearer " + key, "X-Api-Key": ""}},
		{"gemini sends x-goog-api-key, never a key= query", engine.ModeGemini, "https://generativelanguage.googleapis.com/v1beta", key,
			map[string]string{"X-Goog-Api-Key": key, "Authorization": ""}},
		{"an Azure OpenAI resource takes its key in api-key", engine.ModeResponses, "https://demo-resource.openai.azure.com/openai/v1", key,
			map[string]string{"Api-Key": key, "Authorization": ""}},
		{"OpenAI's Responses API takes a bearer token", engine.ModeResponses, "https://api.openai.com/v1", key,
			map[string]string{"Authorization": "Bearer " + key}},
		{"no key sends nothing", engine.ModeChat, "http://localhost:8080/v1", "",
			map[string]string{"Authorization": "", "X-Api-Key": ""}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			c, err := credentialFor(tt.mode, tt.send, tt.key, func(string) string { return "" }, time.Now)
			if err != nil {
				t.Fatal(err)
			}
			req, _ := http.NewRequest(http.MethodPost, tt.send+"/x", strings.NewReader("{}"))
			if c.authorize != nil {
				c.authorize(req)
			}
			for k, want := range tt.headers {
				if got := req.Header.Get(k); got != want {
					t.Errorf("%s: %q, want %q", k, got, want)
				}
			}
			if tt.key != "" && (len(c.secrets) != 1 || c.secrets[0] != tt.key) {
				t.Errorf("secrets %q, want the key scrubbed", c.secrets)
			}
			if req.URL.RawQuery != "" {
				t.Errorf("query %q: credentials never go in the URL", req.URL.RawQuery)
			}
		})
	}
}

func TestCredentialSigV4(t *testing.T) {
	env := map[string]string{
		envAWSAccessKey:    "AKIDEXAMPLE",
		envAWSSecretKey:    "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
		envAWSSessionToken: "session-token-example",
	}
	getenv := func(k string) string { return env[k] }
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	now := func() time.Time { return at }
	const body = `{"messages":[]}`
	sign := func(t *testing.T, url string) (*http.Request, credential) {
		t.Helper()
		c, err := credentialFor(engine.ModeBedrockConverse, "https://bedrock-runtime.eu-west-3.amazonaws.com", "ignored-key", getenv, now)
		if err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		c.authorize(req)
		return req, c
	}

	t.Run("a Bedrock request is signed for service bedrock in the host's region", func(t *testing.T) {
		req, c := sign(t, "https://bedrock-runtime.eu-west-3.amazonaws.com/model/us.anthropic.claude-opus-4-6-v1:0/converse")
		auth := req.Header.Get("Authorization")
		if want := "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260102/eu-west-3/bedrock/aws4_request, SignedHeaders="; !strings.HasPrefix(auth, want) {
			t.Errorf("Authorization %q, want prefix %q", auth, want)
		}
		if !strings.Contains(auth, "x-amz-date") || !strings.Contains(auth, "x-amz-security-token") || !strings.Contains(auth, "Signature=") {
			t.Errorf("Authorization %q does not sign the date and the session token", auth)
		}
		if got := req.Header.Get("X-Amz-Date"); got != "20260102T030405Z" {
			t.Errorf("X-Amz-Date %q", got)
		}
		if got := req.Header.Get("X-Amz-Security-Token"); got != env[envAWSSessionToken] {
			t.Errorf("X-Amz-Security-Token %q", got)
		}
		b, err := io.ReadAll(req.Body)
		if err != nil || string(b) != body {
			t.Errorf("body after signing %q (%v), want it intact", b, err)
		}
		for _, s := range []string{env[envAWSAccessKey], env[envAWSSecretKey], env[envAWSSessionToken]} {
			if !strings.Contains(strings.Join(c.secrets, " "), s) {
				t.Errorf("secret %q is not scrubbed", s)
			}
		}
	})

	t.Run("the signature covers the body", func(t *testing.T) {
		a, _ := sign(t, "https://bedrock-runtime.eu-west-3.amazonaws.com/model/m/converse")
		c, err := credentialFor(engine.ModeBedrockConverse, "https://bedrock-runtime.eu-west-3.amazonaws.com", "", getenv, now)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := http.NewRequest(http.MethodPost, "https://bedrock-runtime.eu-west-3.amazonaws.com/model/m/converse", strings.NewReader(`{"messages":[1]}`))
		b.Header.Set("Content-Type", "application/json")
		c.authorize(b)
		if a.Header.Get("Authorization") == b.Header.Get("Authorization") {
			t.Error("two bodies got the same signature")
		}
	})

	errs := []struct {
		reason string
		send   string
		env    map[string]string
		want   string
	}{
		{"no credentials in the environment", "https://bedrock-runtime.us-east-1.amazonaws.com", map[string]string{},
			"bedrock-runtime.us-east-1.amazonaws.com: SigV4 signing needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment"},
		{"an AWS host without a region", "https://amazonaws.com", env, "amazonaws.com: no AWS region in the host"},
	}
	for _, tt := range errs {
		t.Run(tt.reason, func(t *testing.T) {
			_, err := credentialFor(engine.ModeAnthropic, tt.send, "", func(k string) string { return tt.env[k] }, now)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}
