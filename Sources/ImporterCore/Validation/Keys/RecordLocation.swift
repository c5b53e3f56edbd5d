/// Where a record was read: an input of the run and a line in it.
package struct RecordLocation: Sendable, Equatable {
    package var inputIndex: Int
    package var line: Int

    package init(inputIndex: Int, line: Int) {
        self.inputIndex = inputIndex
        self.line = line
    }
}
