package devserver

import "go.temporal.io/api/workflowservice/v1"

func describeDefault() *workflowservice.DescribeNamespaceRequest {
	return &workflowservice.DescribeNamespaceRequest{Namespace: "default"}
}
