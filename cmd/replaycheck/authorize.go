package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/replaycheck/replaycheck/engine"
)

// anthropicVersion is the anthropic-version header sent with x-api-key.
const anthropicVersion = "2023-06-01"

// AWS credential environment variables read for SigV4 signing.
const (
	envAWSAccessKey    = "AWS_ACCESS_KEY_ID"
	envAWSSecretKey    = "AWS_SECRET_ACCESS_KEY"
	envAWSSessionToken = "AWS_SESSION_TOKEN"
)

// A credential is what `record` adds to the outgoing copy of every request
// (never to what the recorder stores), and the secret values scrubbed from
// every stored body.
type credential struct {
	// scheme names how requests are authorised, for messages.
	scheme string
	// authorize adds the credentials to an outgoing request; nil sends
	// requests as they are.
	authorize func(*http.Request)
	// secrets are scrubbed from stored bodies and URLs.
	secrets []string
}

// credentialFor decides how to authorise requests to sendBase (where they
// really go) for a target speaking mode: an AWS host is signed with SigV4
// from the AWS_* environment, anything else gets key (the value of the
// --key-env variable) in the header its dialect expects: chat
// `Authorization: Bearer`, anthropic `x-api-key` with `anthropic-version`
// (`Authorization: Bearer` on Google's Vertex hosts), gemini
// `x-goog-api-key`, an Azure OpenAI resource (*.openai.azure.com)
// `api-key`. An empty key on a non-AWS host sends no credentials.
// getenv reads the environment; now is the signing clock.
func credentialFor(mode engine.APIMode, sendBase, key string, getenv func(string) string, now func() time.Time) (credential, error) {
	host := engine.Hostname(sendBase)
	if isAWSHost(host) {
		return sigV4Credential(host, getenv, now)
	}
	if key == "" {
		return credential{scheme: "none"}, nil
	}
	header := func(name, value string, extra ...string) credential {
		return credential{
			scheme: name,
			authorize: func(r *http.Request) {
				r.Header.Set(name, value)
				for i := 0; i+1 < len(extra); i += 2 {
					r.Header.Set(extra[i], extra[i+1])
				}
			},
			secrets: []string{key},
		}
	}
	switch {
	case mode == engine.ModeAnthropic && (host == "googleapis.com" || strings.HasSuffix(host, ".googleapis.com")):
		c := header("Authorization", "Bearer "+key)
		c.scheme = "bearer"
		return c, nil
	case mode == engine.ModeAnthropic:
		return header("x-api-key", key, "anthropic-version", anthropicVersion), nil
	case mode == engine.ModeGemini:
		return header("x-goog-api-key", key), nil
	case strings.HasSuffix(host, ".openai.azure.com"):
		return header("api-key", key), nil
	default:
		c := header("Authorization", "Bearer "+key)
		c.scheme = "bearer"
		return c, nil
	}
}

// isAWSHost reports whether requests to host must be signed with SigV4.
func isAWSHost(host string) bool {
	return host == "amazonaws.com" || strings.HasSuffix(host, ".amazonaws.com")
}

// awsRegion is the region label of an AWS endpoint host:
// bedrock-runtime.us-east-1.amazonaws.com → us-east-1.
func awsRegion(host string) (string, bool) {
	labels := strings.Split(strings.TrimSuffix(host, ".amazonaws.com"), ".")
	if len(labels) < 2 {
		return "", false
	}
	region := labels[len(labels)-1]
	if region == "" || !strings.Contains(region, "-") {
		return "", false
	}
	return region, true
}

// sigV4Credential signs Bedrock requests (service bedrock, the host's
// region) with the AWS_* environment credentials.
func sigV4Credential(host string, getenv func(string) string, now func() time.Time) (credential, error) {
	region, ok := awsRegion(host)
	if !ok {
		return credential{}, fmt.Errorf("%s: no AWS region in the host to sign requests for", host)
	}
	creds := aws.Credentials{
		AccessKeyID:     getenv(envAWSAccessKey),
		SecretAccessKey: getenv(envAWSSecretKey),
		SessionToken:    getenv(envAWSSessionToken),
	}
	if creds.AccessKeyID == "" || creds.SecretAccessKey == "" {
		return credential{}, fmt.Errorf("%s: SigV4 signing needs %s and %s in the environment", host, envAWSAccessKey, envAWSSecretKey)
	}
	signer := v4.NewSigner()
	c := credential{
		scheme:  "sigv4 " + region,
		secrets: []string{creds.AccessKeyID, creds.SecretAccessKey},
		authorize: func(r *http.Request) {
			if err := signRequest(signer, creds, region, r, now()); err != nil {
				// Authorize cannot return an error: a body that fails makes
				// the transport fail, so the recording stops and nothing
				// unsigned is sent.
				r.Body = failingBody{fmt.Errorf("sigv4: %w", err)}
				r.GetBody = nil
			}
		},
	}
	if creds.SessionToken != "" {
		c.secrets = append(c.secrets, creds.SessionToken)
	}
	return c, nil
}

// signRequest signs r in place with SigV4 for service bedrock; its body is
// read, hashed and restored.
func signRequest(signer *v4.Signer, creds aws.Credentials, region string, r *http.Request, at time.Time) error {
	var body []byte
	if r.Body != nil {
		b, err := io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil {
			return err
		}
		body = b
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	r.ContentLength = int64(len(body))
	sum := sha256.Sum256(body)
	return signer.SignHTTP(r.Context(), creds, r, hex.EncodeToString(sum[:]), "bedrock", region, at)
}

// failingBody is a request body whose every read fails with err.
type failingBody struct{ err error }

func (b failingBody) Read([]byte) (int, error) { return 0, b.err }
func (b failingBody) Close() error             { return nil }
