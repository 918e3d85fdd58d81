package model

import "github.com/google/uuid"

// Category is one node of the two-level category tree (section 2.7).
type Category struct {
	ID                    string  `json:"id" bun:"id,pk"`
	Description           string  `json:"description"`
	DescriptionTranslated string  `json:"descriptionTranslated"`
	ParentID              *string `json:"parentId,omitempty" bun:"parent_id"`
	ParentDescription     *string `json:"parentDescription,omitempty" bun:"parent_description,scanonly"`
}

// CategoryPage is the page-number envelope of categories.
type CategoryPage struct {
	Total      int         `json:"total"`
	TotalPages int         `json:"totalPages"`
	Page       int         `json:"page"`
	Results    []*Category `json:"results"`
}

// CategoryFeedback is a client's correction of a transaction's category.
type CategoryFeedback struct {
	ID                 uuid.UUID `json:"id"`
	TransactionID      uuid.UUID `json:"transactionId"`
	Description        string    `json:"description"`
	PreviousCategoryID *string   `json:"previousCategoryId"`
	CategoryID         string    `json:"categoryId"`
	CreatedAt          Time      `json:"createdAt"`
}
