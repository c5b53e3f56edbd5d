/// The smallest model the store tests need: one entity, `Product`, keyed by `sku`, with its
/// version attribute.
enum SkuModel {
    static let text = """
        model: Shop
        version: 1
        entities:
          Product:
            hashKey: sku
            versionAttribute: version
            attributes:
              sku:     { type: string }
              version: { type: int64 }
        """
}
