import CLibXML2
import Glibc

/// libxml2's SAX2 parse of `utf8` with every callback empty: what reading TTML cannot go below, since
/// `TTMLParser` parses through the same calls (`XMLEventReader`). False when the XML is malformed or
/// libxml2 is missing.
func libxml2Parse(_ utf8: [UInt8]) -> Bool {
    var events = kk_xml_events()
    events.start_element = { _, _, _, _, _, _ in }
    events.end_element = { _ in }
    events.characters = { _, _, _ in }
    var failure = kk_xml_failure()
    let status = utf8.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { kk_xml_parse($0.baseAddress, Int32(utf8.count), &events, &failure) }
    }
    return status == 0
}

/// libxml2's streaming reader over `utf8`, node by node to the end, as `xmllint --stream --noout` reads a
/// file: the figure the issue that set the TTML budget measured against. Nil when libxml2 is missing.
func libxml2StreamParse(_ utf8: [UInt8]) -> Bool? {
    typealias ForMemory =
        @convention(c) (UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32)
        -> OpaquePointer?
    typealias Read = @convention(c) (OpaquePointer?) -> Int32
    typealias Free = @convention(c) (OpaquePointer?) -> Void
    guard let library = dlopen("libxml2.so.2", RTLD_NOW),
        let forMemory = dlsym(library, "xmlReaderForMemory").map({ unsafeBitCast($0, to: ForMemory.self) }),
        let read = dlsym(library, "xmlTextReaderRead").map({ unsafeBitCast($0, to: Read.self) }),
        let free = dlsym(library, "xmlFreeTextReader").map({ unsafeBitCast($0, to: Free.self) })
    else { return nil }
    let reader = utf8.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { forMemory($0.baseAddress, Int32(utf8.count), nil, "UTF-8", 0) }
    }
    guard let reader else { return false }
    defer { free(reader) }
    var status: Int32 = 1
    while status == 1 { status = read(reader) }
    return status == 0
}
