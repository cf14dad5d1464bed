; Included by the NSIS installer (build/electron-builder.yml nsis.include).
; Registers scandesk:// for the current user at install time, so a link from an e-mail works
; before ScanDesk's first start (main registers it again on every start), and removes it on a real
; uninstall (not when an update replaces the app).

!macro customInstall
  WriteRegStr HKCU "Software\Classes\scandesk" "" "URL:ScanDesk link"
  WriteRegStr HKCU "Software\Classes\scandesk" "URL Protocol" ""
  WriteRegStr HKCU "Software\Classes\scandesk\DefaultIcon" "" "$INSTDIR\${APP_EXECUTABLE_FILENAME},0"
  WriteRegStr HKCU "Software\Classes\scandesk\shell\open\command" "" '"$INSTDIR\${APP_EXECUTABLE_FILENAME}" "%1"'
!macroend

!macro customUnInstall
  ${ifNot} ${isUpdated}
    DeleteRegKey HKCU "Software\Classes\scandesk"
  ${endIf}
!macroend
