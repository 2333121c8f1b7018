package providers

// exceptValueIssues checks the except_values of a top_level_field_present
// condition: no empty value, and not beside values, since a field either
// holds one of some values or any value but some, not both.
func (c Condition) exceptValueIssues(add func(key, format string, args ...any)) {
	for i, v := range c.ExceptValues {
		if v == "" {
			add("except_values", "except_values[%d] is empty", i)
		}
	}
	if len(c.Values) > 0 && len(c.ExceptValues) > 0 {
		add("except_values", "values and except_values cannot both be set: the condition holds for some values or for all but some")
	}
}
