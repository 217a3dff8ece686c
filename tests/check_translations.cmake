# ctest's translations_complete: the shipped catalogues hold every text of the sources, all
# translated. lupdate (with the options of the tally_lupdate target) runs over ui/, app/ and
# planner/ into a copy of each .ts; the copy must have no unfinished entry (a text without its
# translation) and no vanished or obsolete one (a translation whose text is gone).
# PLURAL_TS_FILES (English) hold only the texts that count something, as lupdate -pluralonly
# writes them, and are checked the same way.
# Inputs: -DSOURCE_DIR=... -DLUPDATE=... -DWORK_DIR=... -DTS_FILES=a.ts;b.ts -DPLURAL_TS_FILES=c.ts
set(problems "")
foreach(ts IN LISTS TS_FILES PLURAL_TS_FILES)
  set(only "")
  list(FIND PLURAL_TS_FILES "${ts}" plural_at)
  if(NOT plural_at EQUAL -1)
    set(only -pluralonly)
  endif()
  get_filename_component(name ${ts} NAME)
  set(copy ${WORK_DIR}/${name})
  configure_file(${ts} ${copy} COPYONLY)
  execute_process(
    COMMAND ${LUPDATE} -silent -locations none ${only} -I ${SOURCE_DIR}
            -tr-function-alias QT_TRANSLATE_NOOP+=TALLY_TEXT,translate+=cli_text,QT_TR_NOOP+=F
            ${SOURCE_DIR}/ui ${SOURCE_DIR}/app ${SOURCE_DIR}/planner -ts ${copy}
    WORKING_DIRECTORY ${SOURCE_DIR}
    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT rc EQUAL 0)
    list(APPEND problems "${name}: lupdate failed (${rc})")
    continue()
  endif()
  file(READ ${copy} text)
  foreach(kind unfinished vanished obsolete)
    string(REGEX MATCHALL "type=\"${kind}\"" found "${text}")
    list(LENGTH found n)
    if(n GREATER 0)
      list(APPEND problems "${name}: ${n} ${kind} entries (run ninja tally_lupdate and translate them)")
    endif()
  endforeach()
  string(REGEX MATCHALL "<message" messages "${text}")
  list(LENGTH messages count)
  message(STATUS "${name}: ${count} messages, all translated")
endforeach()
if(problems)
  list(JOIN problems "\n" report)
  message(FATAL_ERROR "${report}")
endif()
