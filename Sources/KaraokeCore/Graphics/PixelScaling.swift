/// Nearest-neighbour scaling of a picture to a size in pixels.
public enum PixelScaling {
    /// The source pixel shown at pixel `index` of `count` pixels scaled from `pixels`: the one under its centre.
    public static func source(_ index: Int, of count: Int, pixels: Int) -> Int {
        min(pixels - 1, (2 * index + 1) * pixels / (2 * count))
    }
}
