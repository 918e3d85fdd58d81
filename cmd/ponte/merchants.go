package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"ponte/merchants"
)

func merchantsCommand() *cli.Command {
	return &cli.Command{
		Name: "merchants", Usage: "operate the merchant directory (GET /merchants)", Action: parent,
		Commands: []*cli.Command{{
			Name: "import", ArgsUsage: "DIR",
			Usage: "load the Receita Federal's CNPJ open data (the Empresas and Estabelecimentos files in DIR, zipped or not) " +
				"into the merchant directory; run it again to resume after a stop: loaded files are skipped",
			Action: func(ctx context.Context, cmd *cli.Command) error {
				if cmd.NArg() != 1 {
					return usagef("usage: ponte merchants import DIR")
				}
				c, err := loadConfig(nil)
				if err != nil {
					return err
				}
				store, closeDB, err := openDatabase(ctx, c, true)
				if err != nil {
					return err
				}
				defer closeDB()
				w := cmd.Root().Writer
				res, err := merchants.Import(ctx, store, cmd.Args().Get(0), w)
				if err != nil {
					return err
				}
				fmt.Fprintf(w, "loaded %d files (%d rows), skipped %d loaded before\n", res.Loaded, res.Rows, res.Skipped)
				return nil
			},
		}},
	}
}
