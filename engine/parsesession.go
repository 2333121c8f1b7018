package engine

import (
	"encoding/json"
	"fmt"
	"strings"
)

// sessionKeys are the keys of a session document ParseSession reads.
var sessionKeys = map[string]int{"id": 0, "messages": 1, "model_config": 2}

// parseSessionFast reads a trimmed, non-empty session document in one
// pass, or gives up with errSlow. It checks nothing ParseSession checks
// after reading (roles, carriers): the caller does.
func parseSessionFast(b []byte, q *QuotedStrings) (*Session, error) {
	s := scanner{b: b, quoted: q}
	var sess Session
	var err error
	if b[0] == '[' {
		sess.Messages, err = s.messages()
	} else {
		err = s.sessionObject(&sess)
	}
	if err != nil {
		return nil, err
	}
	if s.space(); s.i != len(b) {
		return nil, errSlow
	}
	if err := s.decodeLater(); err != nil {
		return nil, err
	}
	return &sess, nil
}

// sessionObject reads {"id":…,"messages":[…],"model_config":{…}}; other
// keys are skipped, as encoding/json skips them.
func (s *scanner) sessionObject(sess *Session) error {
	var keys seen
	err := s.object(func(k string) error {
		n, known := sessionKeys[k]
		if !known {
			for name := range sessionKeys {
				if strings.EqualFold(k, name) {
					return errSlow
				}
			}
			_, err := s.raw()
			return err
		}
		if !keys.add(n) {
			return errSlow
		}
		var err error
		switch k {
		case "id":
			sess.ID, err = s.plainStr()
		case "messages":
			if s.null() {
				return errSlow
			}
			sess.Messages, err = s.messages()
		case "model_config":
			err = s.decodeRaw(&sess.Config)
		}
		return err
	})
	if err == nil && sess.Messages == nil {
		return errSlow
	}
	return err
}

// messages reads an array of message objects.
func (s *scanner) messages() ([]Message, error) {
	msgs := []Message{}
	err := s.array(func() error {
		m, err := s.message()
		msgs = append(msgs, m)
		return err
	})
	return msgs, err
}

// unmarshalSession is the encoding/json reading of a session document:
// the path every document the fast parser gives up on takes, and the one
// that words its errors.
func unmarshalSession(b []byte) (*Session, error) {
	var s Session
	if b[0] == '[' {
		var raws []json.RawMessage
		if err := json.Unmarshal(b, &raws); err != nil {
			return nil, fmt.Errorf("session: %w", jsonErr(b, err))
		}
		msgs, err := unmarshalMessages(raws)
		if err != nil {
			return nil, err
		}
		s.Messages = msgs
		return &s, nil
	}
	var doc struct {
		ID       string            `json:"id"`
		Messages []json.RawMessage `json:"messages"`
		Config   ModelConfig       `json:"model_config"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("session: %w", jsonErr(b, err))
	}
	if doc.Messages == nil {
		return nil, fmt.Errorf("session: no \"messages\" array")
	}
	msgs, err := unmarshalMessages(doc.Messages)
	if err != nil {
		return nil, err
	}
	s.ID, s.Messages, s.Config = doc.ID, msgs, doc.Config
	return &s, nil
}

func unmarshalMessages(raws []json.RawMessage) ([]Message, error) {
	msgs := make([]Message, len(raws))
	for i, r := range raws {
		if err := json.Unmarshal(r, &msgs[i]); err != nil {
			return nil, fmt.Errorf("session: messages.%d: %w", i, err)
		}
		if msgs[i].Role == "" {
			return nil, missingRole(i)
		}
	}
	return msgs, nil
}

// missingRole is the error for a message without a role.
func missingRole(i int) error { return fmt.Errorf("session: messages.%d: missing role", i) }
