#!/bin/sh
# strip-student.sh - print a lab source without its student regions, for comparing stub and solution
# A region runs from a `/* TODO(` comment or `/* BEGIN STUDENT CODE */` to `/* END STUDENT CODE */`.
exec awk '
    /\/\* TODO\(/ || /\/\* BEGIN STUDENT CODE \*\// { skip = 1 }
    !skip { print }
    /\/\* END STUDENT CODE \*\// { skip = 0; print "    /* student region */" }
' "$1"
