// The signedroundtrip suite replays the "signed-roundtrip" scenario on
// every target of matrix.yaml. Its requirement, quoted from the scenario:
// "Signatures, encrypted and opaque reasoning are captured from whole and
// streamed responses and echoed byte for byte."
package suites_test

var _ = scenarioTable("signed-roundtrip")
