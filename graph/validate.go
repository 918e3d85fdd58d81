package graph

import "ponte/itemsync"

var checkURL = itemsync.CheckURL
