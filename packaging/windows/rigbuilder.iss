; Inno Setup 6 script for rigbuilder on Windows: installs the PyInstaller one-folder build and
; associates .rig build files with it.
;
; NOT BUILT OR TESTED: there is no Windows machine in this project's CI. Steps on Windows:
;   py -m venv .venv && .venv\Scripts\pip install -e .[package]
;   .venv\Scripts\rigbuilder catalog build-db -o resources\catalog\catalog.sqlite
;   .venv\Scripts\pyinstaller --noconfirm --clean packaging\rigbuilder.spec
;       (for a build without a console window, set console=False in the spec's EXE, or build a
;        second EXE "rigbuilder-gui" with console=False from the same Analysis)
;   make packaging\windows\rigbuilder.ico from resources\icons\rigbuilder.svg (16-256 px)
;   iscc /DAppVersion=0.1.0 packaging\windows\rigbuilder.iss   -> dist\rigbuilder-0.1.0-setup.exe

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif
#define AppName "rigbuilder"
#define AppExe "rigbuilder.exe"
#define SrcDir "..\..\dist\rigbuilder"

[Setup]
AppId={{5C1E3F0A-6B9D-4E2B-9C61-2D4F3A7B8E10}
AppName={#AppName}
AppVersion={#AppVersion}
AppPublisher=The rigbuilder developers
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
LicenseFile=..\..\LICENSE
OutputDir=..\..\dist
OutputBaseFilename={#AppName}-{#AppVersion}-setup
SetupIconFile=rigbuilder.ico
UninstallDisplayIcon={app}\{#AppExe}
Compression=lzma2
SolidCompression=yes
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
PrivilegesRequiredOverridesAllowed=dialog
ChangesAssociations=yes
WizardStyle=modern

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked
Name: "associate"; Description: "Open .rig build files with {#AppName}"; GroupDescription: "File associations:"

[Files]
Source: "{#SrcDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Registry]
; .rig -> rigbuilder.build, opened with "rigbuilder.exe <file>"
Root: HKA; Subkey: "Software\Classes\.rig"; ValueType: string; ValueName: ""; ValueData: "rigbuilder.build"; Flags: uninsdeletevalue; Tasks: associate
Root: HKA; Subkey: "Software\Classes\.rig"; ValueType: string; ValueName: "Content Type"; ValueData: "application/x-rigbuilder-build"; Flags: uninsdeletevalue; Tasks: associate
Root: HKA; Subkey: "Software\Classes\rigbuilder.build"; ValueType: string; ValueName: ""; ValueData: "rigbuilder build"; Flags: uninsdeletekey; Tasks: associate
Root: HKA; Subkey: "Software\Classes\rigbuilder.build\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\{#AppExe},0"; Tasks: associate
Root: HKA; Subkey: "Software\Classes\rigbuilder.build\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\{#AppExe}"" ""%1"""; Tasks: associate
Root: HKA; Subkey: "Software\Classes\Applications\{#AppExe}\SupportedTypes"; ValueType: string; ValueName: ".rig"; ValueData: ""; Flags: uninsdeletekey

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent
