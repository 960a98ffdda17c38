module tongate/oracles/go

go 1.26.0

require github.com/xssnick/tonutils-go v1.18.0

require (
	filippo.io/edwards25519 v1.2.0 // indirect
	github.com/pierrec/lz4/v4 v4.1.27 // indirect
	golang.org/x/crypto v0.53.0 // indirect
)
