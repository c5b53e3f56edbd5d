import Foundation
import ImporterCore
import XCTest
@testable import ImporterFormats

/// Files in a temporary directory, inferred as `importer model infer` does, the model checked
/// by ModelLoader and the starter pipeline by PipelineLoader.
final class InferenceFixture {
    let files = TempDirectory()

    /// Writes `text` as `name`; returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) -> String { files.write(name, text) }

    /// The model and pipeline inferred from `names` (files written before).
    func infer(_ names: [String], format: InputFormat? = nil, sample: Int? = nil) throws -> Inferred {
        let paths = names.map { files.path + "/" + $0 }
        let profiles = try paths.map { try FileScanner.profile(path: $0, format: format, sample: sample) }
        let inferred = try ModelInference.infer(profiles, modelName: "Test")
        let modelFile = files.write("model.yaml", inferred.modelYAML)
        let model = try ModelLoader.loadFile(modelFile)
        let pipelineText = inferred.pipelineYAML(modelPath: "model.yaml", sourcePaths: names, name: "test")
        let pipeline = try PipelineLoader().load(path: files.write("pipeline.yaml", pipelineText))
        return Inferred(modelYAML: inferred.modelYAML, model: model, pipelineYAML: pipelineText, pipeline: pipeline)
    }

    func infer(_ name: String, _ text: String, format: InputFormat? = nil, sample: Int? = nil) throws -> Inferred {
        write(name, text)
        return try infer([name], format: format, sample: sample)
    }
}

struct Inferred {
    let modelYAML: String
    let model: Model
    let pipelineYAML: String
    let pipeline: PipelineConfig

    /// The one entity (or the one named).
    func entity(_ name: String? = nil) -> Entity {
        name.flatMap { model.entity(named: $0) } ?? model.entities[0]
    }

    /// `name: type` with `!` for required, in attribute order.
    func types(_ entity: String? = nil) -> [String] {
        self.entity(entity).attributes.map { "\($0.name): \($0.type.rawValue)\($0.required ? "!" : "")" }
    }

    func source(_ entity: String? = nil) -> SourceConfig {
        let name = self.entity(entity).name
        return pipeline.sources.first { $0.entity == name }!
    }
}
