# Installs a formula as Homebrew would, from archives in a local folder,
# and runs its `test do` block: a stand-in for `brew install --formula` and
# `brew test` on machines without Homebrew (tests/it/release.rs runs it on
# the formula release/package.py writes).
#
#     ruby release/brew-check.rb FORMULA.rb ARCHIVES_DIR
#
# It keeps to the few parts of Homebrew's formula language feedlint's formula
# uses: the platform blocks pick this machine's one `url` and `sha256`; the
# archive named by the URL's last part is read from ARCHIVES_DIR, its
# SHA-256 checked, unpacked, and `install` run from its one top folder;
# then `test do` runs in an empty folder, as `brew test` does.

require "digest"
require "fileutils"
require "open3"
require "pathname"
require "tmpdir"

# Homebrew's Pathname#install: moves files into the folder.
class Pathname
  def install(*names)
    mkpath
    names.each { |name| FileUtils.mv(name, self / File.basename(name)) }
  end
end

class Formula
  class << self
    attr_reader :urls, :sums, :test_block

    def inherited(formula)
      super
      @@formula = formula
    end

    def loaded = @@formula

    def desc(_text) = nil
    def homepage(_text) = nil
    def license(_text) = nil

    def version(text = nil)
      @version = text if text
      @version
    end

    def on_macos = (yield if RUBY_PLATFORM.include?("darwin"))
    def on_linux = (yield if RUBY_PLATFORM.include?("linux"))
    def on_arm = (yield if RUBY_PLATFORM.match?(/arm64|aarch64/))
    def on_intel = (yield if RUBY_PLATFORM.match?(/x86_64/))

    def url(text) = (@urls ||= []) << text
    def sha256(text) = (@sums ||= []) << text
    def test(&block) = @test_block = block
  end

  attr_reader :prefix, :testpath

  def initialize(prefix) = @prefix = prefix
  def bin = prefix / "bin"
  def version = self.class.version

  def shell_output(command, status = 0)
    output, result = Open3.capture2e(command)
    raise "#{command} exited #{result.exitstatus}, not #{status}:\n#{output}" unless result.exitstatus == status

    output
  end

  def assert_match(expected, actual)
    found = expected.is_a?(Regexp) ? actual.match?(expected) : actual.include?(expected)
    raise "expected #{expected.inspect} in:\n#{actual}" unless found
  end

  def run_test(folder)
    @testpath = folder
    Dir.chdir(folder) { instance_eval(&self.class.test_block) }
  end
end

formula_file, archives = ARGV
abort "usage: ruby #{$PROGRAM_NAME} FORMULA.rb ARCHIVES_DIR" unless formula_file && archives
load File.expand_path(formula_file)
formula = Formula.loaded
urls, sums = formula.urls || [], formula.sums || []
abort "#{formula_file}: #{urls.size} URLs for this machine (#{RUBY_PLATFORM}), not one" unless urls.size == 1 && sums.size == 1

archive = Pathname(archives) / File.basename(urls.first)
actual = Digest::SHA256.file(archive).hexdigest
abort "#{archive.basename}: SHA-256 mismatch: the formula says #{sums.first}, the file is #{actual}" unless actual == sums.first

Dir.mktmpdir("brew-check") do |root|
  root = Pathname(root)
  stage = root / "stage"
  stage.mkpath
  system("tar", "-xzf", archive.to_s, "-C", stage.to_s, exception: true)
  # Homebrew works inside an archive's one top folder.
  top = stage.children
  top = top.size == 1 && top.first.directory? ? top.first : stage
  installed = formula.new(root / "Cellar" / "feedlint" / formula.version)
  Dir.chdir(top) { installed.install }
  testpath = root / "test"
  testpath.mkpath
  installed.run_test(testpath)
  puts "#{formula.name} #{formula.version}: installed from #{archive.basename}, and its test passed"
end
