import Foundation

/// A typed attribute of an entity, with its constraints.
public final class Attribute: Sendable {
    public let name: String
    public let type: AttributeType
    /// A null is rejected unless a default fills it.
    public let required: Bool
    public let minimum: Double?
    public let maximum: Double?
    public let maxLength: Int?
    /// The regex source, kept for messages and checksums.
    public let pattern: String?
    /// An enumeration of the allowed values, as text.
    public let allowedValues: [String]?
    /// The value used when the record carries null or lacks the field.
    public let defaultValue: Value?
    /// Core Data's renaming identifier: the attribute's name in the previous model version.
    public let renamedFrom: String?
    /// How a migration into this model version makes the value (`convert:`).
    package let conversion: Conversion?
    /// The line of the attribute in its model file, for messages.
    public let line: Int?

    package init(
        name: String, type: AttributeType, required: Bool = false, minimum: Double? = nil,
        maximum: Double? = nil, maxLength: Int? = nil, pattern: String? = nil,
        allowedValues: [String]? = nil, defaultValue: Value? = nil, renamedFrom: String? = nil,
        conversion: Conversion? = nil, line: Int? = nil
    ) {
        self.name = name
        self.type = type
        self.required = required
        // A bound of -0 is the bound 0, and model files write it so.
        self.minimum = minimum.map { $0 == 0 ? 0 : $0 }
        self.maximum = maximum.map { $0 == 0 ? 0 : $0 }
        self.maxLength = maxLength
        self.pattern = pattern
        self.allowedValues = allowedValues
        self.defaultValue = defaultValue
        self.renamedFrom = renamedFrom
        self.conversion = conversion
        self.line = line
    }

    /// An equal attribute in an object of its own.
    public func copy() -> Attribute {
        Attribute(
            name: name, type: type, required: required, minimum: minimum, maximum: maximum, maxLength: maxLength,
            pattern: pattern,
            allowedValues: allowedValues, defaultValue: defaultValue, renamedFrom: renamedFrom, conversion: conversion,
            line: line)
    }
}
