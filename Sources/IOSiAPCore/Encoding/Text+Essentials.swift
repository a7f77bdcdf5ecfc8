// What classic Foundation's string helpers did: libiosiap does not link classic Foundation, which brings ICU.

extension StringProtocol {
    /// The text without the white space (spaces, tabs, line ends) at either end.
    package var trimmingWhitespace: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else {
            return ""
        }
        return String(self[first...last])
    }

}
