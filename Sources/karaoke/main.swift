import Glibc
import KaraokeCore
import KaraokeDriver

// The thin edge: parse the command line in the core, then run the command that reads and writes.
DisplayWidth.prepareLocale()
signal(SIGPIPE, SIG_IGN)

let arguments = Array(CommandLine.arguments.dropFirst())
// The config file is read for a command, not for --help, --version or --generate (DESIGN §14.4); its
// warnings come first, and never stop the command.
let config = arguments.first.map { !$0.hasPrefix("-") && $0 != "help" } == true ? SettingsFiles.config() : nil
if let config { StandardStreams.report(config.warnings) }
let invocation: Invocation
do {
    invocation = try CommandLineParser.parse(arguments, config: config)
} catch {
    StandardStreams.err("karaoke: \(error.message)")
    StandardStreams.exit(2)
}

// Every screen that shows lyrics orders right-to-left rows through FriBidi, which the first such line loads
// (DESIGN §3.5).
switch invocation {
case .help(let text):
    StandardStreams.out(text)
    StandardStreams.exit(0)
case .config(let text), .generated(let text):
    StandardStreams.out(text)
    StandardStreams.exit(0)
case .version:
    StandardStreams.out("karaoke \(CommandLineParser.version)\n")
    StandardStreams.exit(0)
case .render(var request):
    request.display.frame.bidi = FriBidi.choice
    StandardStreams.exit(RenderCommand.run(request))
case .check(let request):
    StandardStreams.exit(CheckCommand.run(request))
case .play(var request):
    request.display.frame.bidi = FriBidi.choice
    StandardStreams.exit(PlayCommand.run(request))
case .convert(let request):
    StandardStreams.exit(ConvertCommand.run(request))
case .follow(var request):
    request.display.frame.bidi = FriBidi.choice
    StandardStreams.exit(FollowCommand.run(request))
case .sync(let request):
    StandardStreams.exit(SyncCommand.run(request))
case .calibrate(let request):
    StandardStreams.exit(CalibrateCommand.run(request))
case .mic(let request):
    StandardStreams.exit(MicCommand.run(request))
case .party(var request):
    request.play.display.frame.bidi = FriBidi.choice
    StandardStreams.exit(PartyCommand.run(request))
case .fetch(let request):
    StandardStreams.exit(FetchCommand.run(request, readTags: LyricsFinder.standard.readTags))
}
