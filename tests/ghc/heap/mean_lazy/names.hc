# GHC's -hc band (its (n) left out)<TAB>stg-run's stacks-mode --heap-profile=cc band
# (likewise)[<TAB>documented: the peaks differ for a reason tests/ghc/README.md
# gives]. A list written [1 .. 50000] inside main in Main.hs is built under
# main's stack in GHC; the twin binds it, so stg-run's --auto-cc=all names it
# main.xs.
mean.go/mean/main/Mai...	go/main/Main.CAF
main/Main.CAF	main.xs/main/Main.CAF
