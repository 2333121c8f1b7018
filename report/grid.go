package report

// grid validates m and returns its cells as rows: one per target in m.Targets order, each with
// one cell per scenario in m.Scenarios order, whatever the order of m.Cells.
func (m *Matrix) grid() ([][]Cell, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	byID := make(map[string]Cell, len(m.Cells))
	for _, c := range m.Cells {
		byID[c.ID()] = c
	}
	rows := make([][]Cell, len(m.Targets))
	for i, t := range m.Targets {
		rows[i] = make([]Cell, len(m.Scenarios))
		for j, s := range m.Scenarios {
			rows[i][j] = byID[t+"/"+s]
		}
	}
	return rows, nil
}

// detailed returns the cells of rows that get a details entry (see [Cell.hasDetail]), in grid
// order.
func detailed(rows [][]Cell, withNA bool) []Cell {
	var cells []Cell
	for _, row := range rows {
		for _, c := range row {
			if c.hasDetail(withNA) {
				cells = append(cells, c)
			}
		}
	}
	return cells
}
