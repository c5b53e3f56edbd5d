/// Where a record was read: an input of the run and a line in it.
public struct RecordLocation: Sendable, Equatable {
    public var inputIndex: Int
    public var line: Int

    public init(inputIndex: Int, line: Int) {
        self.inputIndex = inputIndex
        self.line = line
    }
}

