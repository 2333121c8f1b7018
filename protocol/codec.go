package protocol

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/replaycheck/replaycheck/engine"
)

// encodeLine writes v as one line of JSON: no HTML escaping, so raw values
// (sessions in their storage form, request bodies) keep their bytes.
func encodeLine(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// encodeSession returns a session in its storage JSON form (each message
// by [engine.Message.MarshalJSON], opaque values byte for byte).
func encodeSession(s *engine.Session) (json.RawMessage, error) {
	b, err := encodeLine(s)
	if err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b, []byte("\n")), nil
}

// decodeSession reads a session in its storage JSON form; path names it
// in errors.
func decodeSession(raw json.RawMessage, path string) (*engine.Session, error) {
	if len(raw) == 0 || raw[0] != '{' {
		return nil, fmt.Errorf("%s: want a session object, got %s", path, kindOf(raw))
	}
	s, err := engine.ParseSession(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := checkConfig(s.Config, path+".model_config"); err != nil {
		return nil, err
	}
	return s, nil
}

// decodeMessage reads a stored message; path names it in errors.
func decodeMessage(raw json.RawMessage, path string) (engine.Message, error) {
	if len(raw) == 0 || raw[0] != '{' {
		return engine.Message{}, fmt.Errorf("%s: want a message object, got %s", path, kindOf(raw))
	}
	var m engine.Message
	if err := json.Unmarshal(raw, &m); err != nil {
		return engine.Message{}, fmt.Errorf("%s: %w", path, err)
	}
	if m.Role == "" {
		return engine.Message{}, fmt.Errorf("%s.role: missing", path)
	}
	return m, nil
}

// checkConfig checks the carriers a model config records as refused.
func checkConfig(c engine.ModelConfig, path string) error {
	for i, r := range c.RejectedCarriers {
		names := make([]string, len(r.Carriers))
		for j, carrier := range r.Carriers {
			names[j] = string(carrier)
		}
		if _, err := carrierSet(names, fmt.Sprintf("%s.rejected_carriers[%d].carriers", path, i)); err != nil {
			return err
		}
	}
	return nil
}

// setResponse puts a provider's answer on a request: as text when it is
// UTF-8, else in base64 (Bedrock event streams are binary).
func (r *Request) setResponse(resp []byte) {
	if utf8.Valid(resp) {
		s := string(resp)
		r.Response = &s
		return
	}
	s := base64.StdEncoding.EncodeToString(resp)
	r.ResponseBase64 = &s
}

// response reads a provider's answer off a request.
func (r *Request) response() ([]byte, error) {
	switch {
	case r.Response != nil && r.ResponseBase64 != nil:
		return nil, fmt.Errorf("response and response_base64: give one")
	case r.Response != nil:
		return []byte(*r.Response), nil
	case r.ResponseBase64 != nil:
		b, err := base64.StdEncoding.DecodeString(*r.ResponseBase64)
		if err != nil {
			return nil, fmt.Errorf("response_base64: %w", err)
		}
		return b, nil
	}
	return nil, fmt.Errorf("response: missing")
}
